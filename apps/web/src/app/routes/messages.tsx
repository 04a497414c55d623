import { PlaceholderRoute } from './placeholder.tsx';

/** `/messages`: secure messages between patients and their care team (every role). */
function MessagesRoute() {
  return <PlaceholderRoute screen="messages" />;
}

export { MessagesRoute as Component };
