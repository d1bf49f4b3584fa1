/** The job a /job?id=… address names, or null when it names none (one rule for the page and its loader). */
export function jobIdFrom(search: URLSearchParams): number | null {
  const id = Number(search.get('id'));
  return Number.isInteger(id) && id > 0 ? id : null;
}
