import { Outlet } from 'react-router';
import { ErrorContent } from '../components/ErrorContent.tsx';

/** The pages of the default layout; a page's error shows in their place, inside the navigation and footer. */
export default function PageBoundary() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <ErrorContent />;
}
