// Newer and older pages of a log (calls, forms), the page's number between them.
export function Pager({ page, hasMore, go }: { page: number; hasMore: boolean; go: (page: number) => void }) {
  if (page <= 1 && !hasMore) return null;
  return (
    <div class="pager">
      <button type="button" disabled={page <= 1} onClick={() => go(page - 1)}>
        Newer
      </button>
      <span>Page {page}</span>
      <button type="button" disabled={!hasMore} onClick={() => go(page + 1)}>
        Older
      </button>
    </div>
  );
}
