// React-query's client for the routes that use it: every route but the landing, whose first load stays small
// (issue 21: the landing's initial JavaScript). One client for the page, shared by every scope.
import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router-dom';
import { createQueryClient } from './query-client.ts';

const queryClient = createQueryClient();

export default function QueryScope() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
