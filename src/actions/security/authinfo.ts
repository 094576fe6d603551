import { route, type ActionSpec } from '../../http/action';
import { jsonAnswer } from './api-key-service';

// `GET /_plugins/_security/authinfo`: who the request runs as, in the security plugin's shape
// (the fields Quarry has: no tenants, no custom attributes).
export const securityAuthInfo: ActionSpec = {
  action: 'cluster:admin/opendistro_security/authinfo',
  routes: [route('GET', '/_plugins/_security/authinfo'), route('POST', '/_plugins/_security/authinfo')],
  params: [],
  run: (request) => {
    const p = request.principal;
    if (p === undefined) return jsonAnswer({ user_name: null, backend_roles: [], roles: [], security_disabled: true });
    return jsonAnswer({
      user: `User [name=${p.name}, backend_roles=[${p.backendRoles.join(', ')}], requestedTenant=null]`,
      user_name: p.name,
      backend_roles: p.backendRoles,
      roles: p.securityRoles,
      ...(p.apiKeyId === undefined ? {} : { api_key_id: p.apiKeyId }),
      principal: p.superAdmin ? p.name : null,
      peer_certificates: p.superAdmin ? '1' : '0',
    });
  },
};
