import type { ImportedRun, JsonObject, JsonValue } from '../../../shared/model';

/**
 * Credentials never enter the index. Run files carry them more often than one would think (an
 * inline provider `apiKey` in a promptfoo config, a token in a git remote, `api_key=` in
 * lm-eval's model_args), and whatever is stored in a run's settings, provenance or metric
 * definitions is printed by `runs`, shown in comparisons and findings, and synced. So every run
 * passes through `redactRun` before it is written (see docs/formats-generic.md, "Credentials").
 */

export const REDACTED = '[redacted]';

/** Last words that name a credential whatever comes before them. */
const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'secret',
  'secrets',
  'credential',
  'credentials',
  'authorization',
  'cookie',
  'auth',
]);

/**
 * `token` is also a tokenizer's vocabulary (`pad_token: "<pad>"`), and `key` a name for many
 * harmless things (`sort_key`): names ending so whose word before says which are kept.
 */
const NOT_SECRET_TOKEN = new Set([
  'pad',
  'eos',
  'bos',
  'unk',
  'sep',
  'cls',
  'mask',
  'start',
  'end',
  'stop',
  'special',
  'image',
  'audio',
  'video',
  'additional',
  'first',
  'last',
  'begin',
  'eot',
  'prefix',
  'suffix',
  'middle',
  'think',
  'separator',
  'decoder',
  'default',
]);

const NOT_SECRET_KEY = new Set([
  'sort',
  'cache',
  'primary',
  'foreign',
  'group',
  'metric',
  'score',
  'partition',
  'shard',
  'join',
  'index',
  'column',
  'field',
  'dataset',
  'sample',
  'task',
  'lookup',
  'hash',
  'dedup',
  'result',
  'answer',
  'label',
  'target',
  'input',
  'output',
]);

/** One-word names such as `apikey`, `accesstoken`, `xapikey`. */
const JOINED_SECRET =
  /(?:api|access|secret|private|auth|client|session|bearer|refresh)(?:key|token)s?$/;

/** `OPENAI_API_KEY`, `apiKey`, `X-Api-Key`, `client.secret` → lower-case words. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

/** Whether a setting, header or query parameter of this name holds a credential. */
export function isCredentialName(name: string): boolean {
  const list = words(name);
  const last = list[list.length - 1];
  if (last === undefined) return false;
  const before = list[list.length - 2];
  if (SECRET_WORDS.has(last) || JOINED_SECRET.test(last)) return true;
  if (last === 'token') return before === undefined || !NOT_SECRET_TOKEN.has(before);
  if (last === 'key' || last === 'keys') return before === undefined || !NOT_SECRET_KEY.has(before);
  return false;
}

const URL_WITH_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^/?#@\s"'<>]+)@/gi;
/** A value stops at `?` and `=` so that `base_url=https://h/v1?key=…` yields the inner pair. */
const NAMED_VALUE = /([A-Za-z][\w.-]*)=([^&,;?=\s"'<>]+=*)/g;
/** A word of prose after "Basic" is left alone: a credential has a digit in it. */
const BEARER = /\b(Bearer|Basic)\s+(?=[A-Za-z._~+/=-]*[0-9])[A-Za-z0-9._~+/=-]{8,}/g;

/**
 * Credentials inside a text: the password (or token) in a URL's user part, `name=value` pairs
 * whose name is a credential's (query strings, lm-eval's `model_args`), and HTTP auth values.
 */
export function redactText(text: string): string {
  if (!/[@=]|Bearer|Basic/.test(text)) return text;
  return text
    .replace(URL_WITH_USERINFO, (whole, scheme: string, userinfo: string) => {
      const colon = userinfo.indexOf(':');
      if (colon >= 0) return `${scheme}${userinfo.slice(0, colon)}:${REDACTED}@`;
      // A user name alone is not secret (`ssh://git@…`), a token in its place is.
      return userinfo === 'git' ? whole : `${scheme}${REDACTED}@`;
    })
    .replace(NAMED_VALUE, (whole, name: string, value: string) =>
      isCredentialName(name) && value !== REDACTED ? `${name}=${REDACTED}` : whole,
    )
    .replace(BEARER, (_whole, scheme: string) => `${scheme} ${REDACTED}`);
}

function redactValue(value: JsonValue, at: string, found: string[]): JsonValue {
  if (typeof value === 'string') {
    const clean = redactText(value);
    if (clean !== value) found.push(at);
    return clean;
  }
  if (Array.isArray(value)) return value.map((v, i) => redactValue(v, `${at}[${i}]`, found));
  if (value !== null && typeof value === 'object') return redactObject(value, at, found);
  return value;
}

/** Numbers, booleans and null are never secrets (`use_auth_token: true`), nor an empty text. */
function holdsSecret(value: JsonValue): boolean {
  if (typeof value === 'string') return value !== '' && value !== REDACTED;
  return value !== null && typeof value === 'object';
}

function redactObject(object: JsonObject, at: string, found: string[]): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(object)) {
    const path = at === '' ? key : `${at}.${key}`;
    if (isCredentialName(key) && holdsSecret(value)) {
      out[key] = REDACTED;
      found.push(path);
    } else {
      out[key] = redactValue(value, path, found);
    }
  }
  return out;
}

function describe(found: string[]): string {
  const shown =
    found.slice(0, 5).join(', ') + (found.length > 5 ? `, and ${found.length - 5} more` : '');
  const what = found.length === 1 ? 'credential-like setting' : 'credential-like settings';
  return `${found.length} ${what} redacted: ${shown}`;
}

/**
 * Replaces every credential in the run's settings, provenance and metric definitions, at any
 * depth, with "[redacted]", and adds a warning naming where they were. Names are cleaned too:
 * some importers build a condition's name from its settings (`api_key=…` in Inspect's).
 */
export function redactRun(run: ImportedRun): void {
  const found: string[] = [];
  const name = redactText(run.condition.name);
  if (name !== run.condition.name) {
    run.condition.name = name;
    found.push('condition name');
  }
  if (run.experiment) {
    const experimentName = redactText(run.experiment.name);
    if (experimentName !== run.experiment.name) {
      run.experiment.name = experimentName;
      found.push('experiment name');
    }
  }
  const settings = run.settings as unknown as Record<string, JsonObject | null>;
  for (const [section, value] of Object.entries(settings)) {
    if (value !== null) settings[section] = redactObject(value, section, found);
  }
  run.provenance = redactObject(run.provenance, 'provenance', found);
  run.metricDefinitions = redactObject(
    run.metricDefinitions as JsonObject,
    'metric_definitions',
    found,
  ) as ImportedRun['metricDefinitions'];
  if (found.length > 0) run.warnings.push(describe(found));
}
