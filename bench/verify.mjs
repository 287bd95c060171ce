// Before any load: every case must answer 2xx on both servers with equivalent JSON (and, for
// writes, the same rows written), so no ratio ever compares an error path.
import { isDeepStrictEqual } from 'node:util';

const { fetch } = globalThis;

const show = (value) => JSON.stringify(value).slice(0, 600);

/** Where two JSON values first differ, e.g. `data.key.name`, or null when equal. */
function firstDifference(a, b, path = '') {
  if (isDeepStrictEqual(a, b)) return null;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return path || '(top)';
  }
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const found = firstDifference(a[key], b[key], path === '' ? key : `${path}.${key}`);
    if (found !== null) return found;
  }
  return path || '(top)';
}

async function call(server, request, apiKey) {
  const response = await fetch(`${server.url}${request.path}`, {
    method: request.method,
    headers: { authorization: `Bearer ${apiKey}`, ...request.headers },
    body: request.bodies === undefined ? request.body : request.bodies()(),
  });
  const text = await response.text();
  let body = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: reported as text below.
  }
  return { server: server.name, status: response.status, body };
}

function fail(benchCase, problem, answers) {
  const detail = answers.map((a) => `--- ${a.server} (${a.status}):\n${show(a.body)}`).join('\n');
  throw new Error(`${benchCase.label}: ${problem}\n${detail}`);
}

/** Throws, naming the case and showing both answers, at the first difference. */
export async function verifyCases(cases, servers, seeded, target) {
  for (const benchCase of cases) {
    const answers = [];
    // A write case may give each server its own record to write on (see cases.mjs).
    for (const server of servers) {
      answers.push(await call(server, benchCase.request(seeded), seeded.apiKey));
    }
    for (const answer of answers) {
      if (answer.status < 200 || answer.status > 299) {
        fail(benchCase, `${answer.server} answered ${answer.status}`, answers);
      }
      const problem = benchCase.check?.(answer.body) ?? null;
      if (problem !== null) fail(benchCase, `${answer.server}: ${problem}`, answers);
    }
    if (answers[0].status !== answers[1].status) fail(benchCase, 'statuses differ', answers);
    const [first, second] = answers.map((a) => benchCase.comparable(a.body));
    const difference = firstDifference(first, second);
    if (difference !== null) fail(benchCase, `the JSON bodies differ at ${difference}`, answers);
    if (benchCase.writes) {
      const writes = await Promise.all(
        answers.map(async (a) => ({
          server: a.server,
          status: a.status,
          body: await benchCase.written(target, a.body.data),
        })),
      );
      for (const w of writes) {
        const problem = benchCase.checkWritten(w.body);
        if (problem !== null) fail(benchCase, `${w.server}: ${problem}`, writes);
      }
      const written = firstDifference(writes[0].body, writes[1].body);
      if (written !== null) fail(benchCase, `the rows written differ at ${written}`, writes);
    }
  }
}
