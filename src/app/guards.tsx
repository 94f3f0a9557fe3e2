// Route guards of spec §2: signed-in only pages redirect to /login with the wanted path as redirectTo.
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAuth } from '../session/auth-context.tsx';
import { PageLoading } from '../ui/loading-screen.tsx';

export function RequireAuth({ children }: { children: ReactNode }) {
  const { isAuthenticated, isLoading, pendingEmailConfirmation, justSignedOut } = useAuth();
  const location = useLocation();
  if (isLoading && !pendingEmailConfirmation) return <PageLoading />;
  // After a sign-out the member is on the way to /; do not bounce them to /login first.
  if (!isAuthenticated && justSignedOut) return null;
  if (!isAuthenticated)
    return <Navigate to="/login" replace state={{ redirectTo: location.pathname + location.search }} />;
  return children;
}

/** /home: the profile builder for members, sign-in for visitors. */
export function HomeRedirect() {
  const { isAuthenticated, isLoading, pendingEmailConfirmation } = useAuth();
  if (isLoading && !pendingEmailConfirmation) return <PageLoading />;
  return <Navigate to={isAuthenticated ? '/profile-builder' : '/login'} replace />;
}
