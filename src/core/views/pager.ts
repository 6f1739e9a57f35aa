import type { Button } from '../reply.ts';

/** The page to show for a requested one: within 1..the last page (page 1 of an empty list), so "page 99/5" never happens. */
export function pageInRange(page: number, total: number, pageSize: number): number {
  return Math.min(Math.max(1, page), Math.max(1, Math.ceil(total / pageSize)));
}

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
