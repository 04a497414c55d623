import { GraphQLRequestError, type GraphQLErrorEntry } from './graphql.ts';

/**
 * Fetches a file from our server with the session cookie and saves it under the name the server gives (never a
 * patient's: the server names files by what they are and their dates), or `fallbackName`. A refusal comes in the
 * server's one error body, so it is thrown as a GraphQLRequestError and said in the reader's language like any
 * other answer. Answers the file name. Used by the report CSVs and the billing documents.
 */
export async function downloadFile(url: string, options: { fallbackName: string; accept?: string }): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, {
      credentials: 'same-origin',
      ...(options.accept ? { headers: { accept: options.accept } } : {}),
    });
  } catch (cause) {
    throw new GraphQLRequestError('network', [], undefined, { cause });
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { errors?: GraphQLErrorEntry[] } | null;
    const errors = body?.errors ?? [];
    throw new GraphQLRequestError(errors.length > 0 ? 'graphql' : 'http', errors, response.status);
  }
  const blob = await response.blob();
  const fileName =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? options.fallbackName;
  const href = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = fileName;
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Give the browser a moment to start the download before the address goes.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
  return fileName;
}
