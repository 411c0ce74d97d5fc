import { useEffect } from 'react';
import type { ApiUser } from '#common/api-types.ts';

/** The page title gets "(n) " in front: unread messages plus new likes (spec section 2). */
export function usePageTitlePrefix(user: ApiUser | null) {
  const count = user ? user.num_unread_messages + user.num_new_likes : 0;
  useEffect(() => {
    const apply = () => {
      const bare = document.title.replace(/^\(\d+\+?\) /, '');
      const next = count > 0 ? `(${count}) ${bare}` : bare;
      if (document.title !== next) document.title = next;
    };
    apply();
    const observer = new MutationObserver(apply);
    const head = document.querySelector('head');
    if (head) observer.observe(head, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [count]);
}
