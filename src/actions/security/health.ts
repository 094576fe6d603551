import { route, type ActionSpec } from '../../http/action';
import { jsonAnswer } from './api-key-service';

// `GET /_plugins/_security/health`: whether security is up, answered without credentials as the
// security plugin answers it (load balancers and dashboards poll it before logging in).
export const securityHealth: ActionSpec = {
  action: 'cluster:admin/opendistro_security/health',
  unauthenticated: true,
  routes: [route('GET', '/_plugins/_security/health'), route('POST', '/_plugins/_security/health')],
  params: ['mode'],
  run: (_request, node) => jsonAnswer({ message: null, mode: 'strict', status: node.security === undefined ? 'DOWN' : 'UP' }),
};
