import { VIDEO_SIGNAL_PATH } from '@telehealth/shared';

/** Whether the video server's socket opens and answers a ping within 5 seconds. */
export function checkSignalling(): Promise<boolean> {
  return new Promise((resolve) => {
    const url = new URL(VIDEO_SIGNAL_PATH, window.location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    let socket: WebSocket;
    try {
      socket = new WebSocket(url);
    } catch {
      resolve(false);
      return;
    }
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      socket.close(1000, 'checked');
      resolve(ok);
    };
    const timer = setTimeout(() => finish(false), 5_000);
    socket.addEventListener('open', () => socket.send(JSON.stringify({ type: 'ping' })));
    socket.addEventListener('message', (event) => {
      if (String(event.data).includes('"pong"')) finish(true);
    });
    socket.addEventListener('error', () => finish(false));
  });
}
