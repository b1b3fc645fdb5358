/**
 * The answers of the settings routes (issue 23): GET /api/settings/{id}/ answers the value with its
 * summary label, whether the kind fixes it and the server values its texts name (renderers/SettingPanel.tsx
 * LoadedSetting); POST answers the stored value and its label. `data` is the declaration's own schema,
 * so each setting's answer is serialised with its schema (fast-json-stringify) and carries no field the
 * schema does not name.
 */
import fjs from 'fast-json-stringify';
import { SUMMARY_INTENTS, type Declaration, type JsonSchema } from '../../../schemas/types';
import { okSchema } from '../http/envelope';

const summary = { type: ['string', 'null'], description: '摘要标签（setting.json 的 summary，占位符已填入取值），无标签时为 null' };
const summary_intent = { type: ['string', 'null'], enum: [...SUMMARY_INTENTS, null], description: '摘要标签的颜色（setting.json 的 intent，未写时为 none），无标签时为 null' };

/**
 * The answer of GET /api/settings/<id>/ for a value schema (`{}` for any value). `summary` and
 * `summary_intent` (null when the value has no label) and `fixed` are in every answer (routes.ts
 * read()); `vars` only for the declarations with serverVars, so it stays optional.
 */
export function settingReadAnswer(value: JsonSchema): JsonSchema {
  return okSchema(
    value,
    {
      summary,
      summary_intent,
      fixed: { type: 'boolean', description: '该类服务的此项配置固定，不可修改' },
      vars: { type: 'object', additionalProperties: { type: 'string' }, description: '说明文字中引用的服务端取值（setting.json 的 serverVars）' },
    },
    ['summary', 'summary_intent', 'fixed'],
  );
}

/** The answer of POST /api/settings/<id>/: the stored value (normalised), its label and the label's colour (always sent, null without one). */
export function settingWriteAnswer(value: JsonSchema): JsonSchema {
  return okSchema(value, { summary, summary_intent }, ['summary', 'summary_intent']);
}

export type Serialize = (answer: unknown) => string;

/** Serialisers of each declaration's answers, compiled on first use. */
export function settingSerializers(): { read(d: Declaration): Serialize; write(d: Declaration): Serialize } {
  const read = new Map<string, Serialize>();
  const write = new Map<string, Serialize>();
  // the declarations use if/then for fields of one branch: fast-json-stringify then asks its ajv, whose
  // strictTypes warnings say nothing about serialising
  const opts = { ajv: { strictTypes: false } } as Parameters<typeof fjs>[1];
  const compile = (cache: Map<string, Serialize>, d: Declaration, answer: (v: JsonSchema) => JsonSchema): Serialize => {
    let s = cache.get(d.meta.id);
    if (!s) cache.set(d.meta.id, (s = fjs(answer(d.schema) as any, opts) as Serialize));
    return s;
  };
  return { read: (d) => compile(read, d, settingReadAnswer), write: (d) => compile(write, d, settingWriteAnswer) };
}
