// Stage 3 of the request pipeline: the action name plus the concrete indices decide. Every
// principal may do everything until the security issue adds roles.
import type { Principal } from './authenticate';

export function authorize(_principal: Principal, _action: string, _indices: readonly string[]): void {
  // Pass-through by design for now; see the security issue.
}
