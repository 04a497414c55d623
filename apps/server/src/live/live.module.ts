import { defineModule } from '../modules/domain-module.ts';
import { registerLiveRoutes } from './live.routes.ts';

/** The live channel: a WebSocket per signed-in tab that hears when its data changed. */
export default defineModule({
  name: 'live',
  routes: (app) => registerLiveRoutes(app),
});
