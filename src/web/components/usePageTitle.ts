import { useEffect } from 'react';

/**
 * Sets the browser tab's title to "<page> · Linecrew" while the page is shown:
 * with several tabs open, or in the history list, each page is told apart by what it shows.
 */
export function usePageTitle(page: string | null | undefined) {
  useEffect(() => {
    document.title = page ? `${page} · Linecrew` : 'Linecrew';
  }, [page]);
}
