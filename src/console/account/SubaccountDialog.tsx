/**
 * The create and edit dialogs of a sub-account (spec 000 §2.5, §4–§6): the sub-account declaration
 * (schemas/forms/subaccount) rendered by the generic engine, with its rules.ts driving what a change
 * does (behave), what is disabled or hidden (uiFor) and whether 确定 may be pressed (canSave, re-evaluated
 * 1 s after each change). The name's uniqueness is checked as it is typed. After saving, one grant per
 * added service and one revocation per removed one.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import type { IChangeEvent } from '@rjsf/core';
import type { RJSFValidationError, UiSchema } from '@rjsf/utils';
import subaccountSchema from '../../../schemas/forms/subaccount/schema.json';
import subaccountUi from '../../../schemas/forms/subaccount/ui.json';
import {
  behave, bindsDiff, canSave, ruleErrors, toPermissions, uiFor,
  type SubaccountContext, type SubaccountForm,
} from '../../../schemas/forms/subaccount/rules';
import { ThemedForm, transformErrors, validator, validatorFor } from '../../../renderers/theme';
import { toErrorSchema } from '../../../renderers/errorSchema';
import type { BucketPage } from '../../../renderers/SettingPanel';
import { api, ApiFailure, failureText } from '../api/client';
import { notify } from '../common/toaster';
import { errorText, type FieldError } from '../../shared/errors';
import type { BucketInfo, CursorPager } from '../../shared/buckets';
import { FORM_REVALIDATE_MS, type ChildBind } from '../../shared/permissions';
import { SEARCH_DEBOUNCE_MS } from '../../shared/services';

export const CREATED_TEXT = '创建子账号成功';
export const UPDATED_TEXT = '更新子账号成功';
const NAME_TAKEN_TEXT = errorText(21100);
const NAME_PATTERN = new RegExp(subaccountSchema.properties.child_name.pattern);

export interface SubaccountDialogProps {
  mode: 'new' | 'update';
  initial: SubaccountForm;
  /** the sub-account's permissions before the edit ([] when creating) */
  held: string[];
  /** its grants before the edit */
  binds: ChildBind[];
  billHidden: boolean;
  /** the account has content audit enabled (GET /api/audit/exists); undefined while unknown */
  auditEnabled?: boolean;
  onClose(): void;
  onSaved(): void;
}

interface Failure {
  message: string;
  errors: FieldError[];
}

/** The top-level field an RJSF error is about: ".data.stats" → "data". */
const topField = (e: RJSFValidationError) => (e.property ?? '').split('.').filter(Boolean)[0] ?? '';
const FIELDS = Object.keys(subaccountSchema.properties);
/** The top-level field of an input id: "root_child_name" → "child_name". */
const fieldOfId = (id: string) => FIELDS.find((f) => id === `root_${f}` || id.startsWith(`root_${f}_`));

export function SubaccountDialog({ mode, initial, held, binds, billHidden, auditEnabled, onClose, onSaved }: SubaccountDialogProps) {
  const ctx: SubaccountContext = useMemo(() => ({ mode, held, billHidden, auditEnabled }), [mode, held, billHidden, auditEnabled]);
  const [formData, setFormData] = useState<SubaccountForm>(() => behave(initial, initial, ctx));
  // errors show for the fields a person has been in (and the permission groups), all of them after 确定
  const touched = useRef(new Set<string>(['buckets', 'create', 'data', 'other']));
  const showAll = useRef(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [saving, setSaving] = useState(false);
  const [nameTaken, setNameTaken] = useState(false);
  const [checkingName, setCheckingName] = useState(false);
  const [ready, setReady] = useState(false);
  const [hint, setHint] = useState<string | null>(null);
  const formRef = useRef<any>(null);
  // bucket ids by name, learnt from the picker's pages and the existing grants (a grant names the id)
  const ids = useRef(new Map<string, number>(binds.map((b) => [b.bucket_name, b.bucket_id])));

  const io = useMemo(
    () => ({
      async buckets(kind: string, search: string, cursor: { since?: number; max?: number }, limit: number): Promise<BucketPage> {
        const res = await api.get<{ data: BucketInfo[]; pager: CursorPager }>('/api/buckets/', { business_type: kind, limit, ...(search ? { bucket_name: search } : {}), ...cursor });
        for (const b of res.data) ids.current.set(b.bucket_name, b.bucket_id);
        return { names: res.data.map((b) => b.bucket_name), since: res.pager.since, max: res.pager.max };
      },
    }),
    [],
  );
  const formContext = useMemo(() => ({ io }), [io]);

  // the name's uniqueness across every account, checked as it is typed (creating only)
  const name = formData.child_name ?? '';
  useEffect(() => {
    if (mode !== 'new') return;
    setNameTaken(false);
    if (name.length < 5 || name.length > 20 || !NAME_PATTERN.test(name)) return;
    setCheckingName(true);
    let live = true;
    const t = setTimeout(() => {
      api
        .get<{ result: boolean }>('/api/account/child/check/', { check_type: 'username', check_value: name })
        .then((r) => live && setNameTaken(Boolean(r.result)))
        .catch(() => undefined)
        .finally(() => live && setCheckingName(false));
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [mode, name]);

  // 确定 is enabled only while the form is valid and a permission is ticked, re-evaluated 1 s after a change
  const firstCheck = useRef(true);
  useEffect(() => {
    const evaluate = () => {
      const schemaOk = validator.validateFormData(formData, subaccountSchema as object).errors.length === 0;
      const rules = ruleErrors(formData, ctx);
      setReady(schemaOk && canSave(formData, ctx) && !nameTaken && !checkingName);
      setHint(rules[0]?.message ?? null);
    };
    if (firstCheck.current) {
      firstCheck.current = false;
      evaluate();
      return;
    }
    const t = setTimeout(evaluate, FORM_REVALIDATE_MS);
    return () => clearTimeout(t);
  }, [formData, ctx, nameTaken, checkingName]);

  const uiSchema: UiSchema = useMemo(() => ({ ...uiFor(subaccountUi, formData, ctx), 'ui:submitButtonOptions': { norender: true } }), [formData, ctx]);

  const extraErrors = useMemo(() => {
    const errors: FieldError[] = [...(failure?.errors ?? [])];
    if (nameTaken) errors.push({ path: '/child_name', message: NAME_TAKEN_TEXT });
    return errors.length ? toErrorSchema(errors) : undefined;
  }, [failure, nameTaken]);

  function onChange(e: IChangeEvent) {
    const next = behave(formData, e.formData as SubaccountForm, ctx);
    for (const k of Object.keys({ ...formData, ...next }) as (keyof SubaccountForm)[]) {
      if (JSON.stringify(formData[k]) !== JSON.stringify(next[k])) touched.current.add(k);
    }
    setFormData(next);
    if (failure) setFailure(null);
  }

  async function grantAndRevoke(childId: number): Promise<void> {
    const { add, remove } = bindsDiff(binds, formData);
    let grantFailed = false;
    let revokeFailed = false;
    for (const a of add) {
      const bucketId = ids.current.get(a.bucket_name);
      try {
        if (bucketId === undefined) throw new Error(a.bucket_name);
        await api.put('/api/bucket/child/', { child_id: childId, bucket_id: bucketId });
      } catch {
        grantFailed = true;
      }
    }
    for (const r of remove) {
      try {
        await api.del('/api/bucket/child/', { id: r.id });
      } catch {
        revokeFailed = true;
      }
    }
    if (grantFailed) notify(errorText(41002), 'danger');
    if (revokeFailed) notify(errorText(41003), 'danger');
  }

  async function save() {
    setFailure(null);
    showAll.current = true;
    if (!formRef.current?.validateForm()) return;
    const refusals = ruleErrors(formData, ctx);
    if (refusals.length) {
      setFailure({ message: refusals[0].message, errors: refusals.filter((r) => r.path) });
      return;
    }
    setSaving(true);
    try {
      const permissions = toPermissions(formData, held);
      let childId: number;
      if (mode === 'new') {
        const res = await api.put<{ data: { child_id: number } }>('/api/account/child/', {
          child_name: formData.child_name,
          password: formData.password,
          ...(formData.nickname ? { nickname: formData.nickname } : {}),
          permissions,
        });
        childId = res.data.child_id;
      } else {
        childId = formData.child_id!;
        await api.post('/api/account/child/', {
          child_id: childId,
          nickname: formData.nickname ?? '',
          ...(formData.password ? { password: formData.password } : {}),
          permissions,
        });
      }
      notify(mode === 'new' ? CREATED_TEXT : UPDATED_TEXT, 'success');
      await grantAndRevoke(childId);
      onSaved();
    } catch (e) {
      const errors = e instanceof ApiFailure ? e.errors.filter((x) => x.path !== '/permissions') : [];
      setFailure({ message: failureText(e), errors });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog isOpen title={mode === 'new' ? '创建子账号' : '编辑子账号'} onClose={onClose} className="subaccount-dialog" canOutsideClickClose={false}>
      <DialogBody>
        {failure && (
          <Callout intent="danger" className="setting-failure" role="alert">
            {failure.message}
          </Callout>
        )}
        <ThemedForm
          ref={formRef}
          tagName="div"
          schema={subaccountSchema as object}
          uiSchema={uiSchema}
          formData={formData}
          formContext={formContext}
          validator={validatorFor(subaccountSchema as object)}
          liveValidate="onChange"
          showErrorList={false}
          noHtml5Validate
          transformErrors={(errors, ui) => transformErrors(errors, ui).filter((e) => showAll.current || touched.current.has(topField(e)))}
          extraErrors={extraErrors}
          onChange={onChange}
          onFocus={(id: string) => {
            const f = fieldOfId(id);
            if (f) touched.current.add(f);
          }}
          onError={() => undefined}
        />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>取消</Button>
            <Button intent="primary" onClick={save} disabled={!ready} loading={saving} className="subaccount-confirm">
              确定
            </Button>
          </>
        }
      >
        {hint && <span className="subaccount-hint">{hint}</span>}
      </DialogFooter>
    </Dialog>
  );
}
