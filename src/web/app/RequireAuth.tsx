import { Navigate, Outlet, useLocation } from 'react-router';
import { Center } from '@mantine/core';
import { Spinner } from '../components/Spinner';
import { useSession } from '../api/session';

/** docs/product/screens.md §1.1: protected routes send a signed-out visitor to /login, remembering where they were going. */
export function RequireAuth() {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'checking') {
    return (
      <Center py="xl">
        <Spinner label="Loading" />
      </Center>
    );
  }
  if (status === 'out') return <Navigate to="/login" replace state={{ from: location }} />;
  return <Outlet />;
}
