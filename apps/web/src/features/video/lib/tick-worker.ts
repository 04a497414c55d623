// A timer in a worker: a hidden tab throttles the page's own timers and animation frames, not a worker's, so the
// recording's picture keeps its pace while the provider looks at another tab.
let timer: ReturnType<typeof setInterval> | undefined;
self.addEventListener('message', (event: MessageEvent<{ intervalMs: number } | 'stop'>) => {
  clearInterval(timer);
  if (event.data !== 'stop') timer = setInterval(() => self.postMessage('tick'), event.data.intervalMs);
});
