import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../api/session';

/** SPEC §2: protected routes send a signed-out visitor to /login, remembering where they were going. */
export function RequireAuth() {
  const { token } = useSession();
  const location = useLocation();
  if (!token) return <Navigate to="/login" replace state={{ from: location }} />;
  return <Outlet />;
}
