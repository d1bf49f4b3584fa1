import { API, expect, test, unique, type SeededJob } from './fixtures';

// The seededJob fixture's promise: the job is there for its test, and gone after it.
test.describe.configure({ mode: 'serial' });

let made: SeededJob | undefined;

test('a seeded job exists while its test runs', async ({ request, seededJob }) => {
  made = await seededJob([{ pole: { pole_name: unique('SJ').slice(-9), line_name: '1' } }]);
  const res = await request.get(`${API}/jobs/${made.id}`, { headers: { Authorization: `Bearer ${made.token}` } });
  expect(res.status()).toBe(200);
});

test('a seeded job is deleted when its test ends', async ({ request }) => {
  expect(made, 'the test before made a job').toBeDefined();
  const res = await request.get(`${API}/jobs/${made!.id}`, { headers: { Authorization: `Bearer ${made!.token}` } });
  expect(res.status()).toBe(404);
});
