import type { LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import './empty-state.scss';

/**
 * What a list says when it has nothing yet: an icon, a sentence that explains why and what to do,
 * and at most one way onwards.
 */
export function EmptyState({ icon: Icon, text, action, testId, compact = false }: {
  icon: LucideIcon;
  text: string;
  action?: { to: string; label: string };
  testId?: string;
  compact?: boolean;
}) {
  return (
    <div className={`empty-state text-center ${compact ? 'py-4 px-3' : 'py-5'}`} data-testid={testId}>
      <span className="empty-state-icon" aria-hidden="true"><Icon size={compact ? 24 : 32} /></span>
      <p className={`mx-auto mb-3 ${compact ? '' : 'lead'}`}>{text}</p>
      {action && <Link to={action.to} className="btn btn-primary">{action.label}</Link>}
    </div>
  );
}
