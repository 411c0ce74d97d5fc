import { data } from 'react-router';

/** A console address that is no screen: 404 inside the console (a member never falls through to a member page). */
export function loader() {
  throw data(null, { status: 404 });
}

export default function ConsoleNotFound() {
  return null;
}
