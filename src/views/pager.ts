import type { Button } from '../reply.ts';

/**
 * Previous / Next buttons for a paged list; `idFor(page)` builds each button's custom id. Both are
 * always shown (disabled at the ends) so the row does not jump around while paging.
 */
export function pagerRow(idFor: (page: number) => string, page: number, hasMore: boolean): Button[] {
  return [
    { kind: 'action', customId: idFor(page - 1), label: '◀ Previous', style: 'secondary', disabled: page <= 1 },
    { kind: 'action', customId: idFor(page + 1), label: 'Next ▶', style: 'secondary', disabled: !hasMore },
  ];
}
