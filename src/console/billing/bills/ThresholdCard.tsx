/**
 * The bill threshold (GET, POST, DELETE /api/bill_threshold): when the balance falls below it the
 * account is told once by a message and an SMS. The form is the declaration schemas/forms/bill_threshold/.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Callout, Card } from '@blueprintjs/core';
import { api, ApiFailure, failureText } from '../../api/client';
import { DeclarationForm } from '../../../../renderers/DeclarationForm';
import schema from '../../../../schemas/forms/bill_threshold/schema.json';
import ui from '../../../../schemas/forms/bill_threshold/ui.json';
import type { FieldError } from '../../../shared/errors';
import { formatMoney } from '../../../shared/format';

export function ThresholdCard() {
  const [current, setCurrent] = useState<number | null | undefined>(undefined);
  const [form, setForm] = useState<{ threshold?: number }>({});
  const [failure, setFailure] = useState<{ message: string; errors?: FieldError[] } | null>(null);
  const [done, setDone] = useState('');
  const formRef = useRef<any>(null);
  const load = useCallback(() => {
    api
      .get<{ data: { threshold: number | null } }>('/api/bill_threshold')
      .then((r) => {
        setCurrent(r.data.threshold);
        setForm(r.data.threshold === null ? {} : { threshold: r.data.threshold });
      })
      .catch((e) => setFailure({ message: failureText(e) }));
  }, []);
  useEffect(load, [load]);
  const save = async () => {
    setDone('');
    setFailure(null);
    if (!formRef.current?.validateForm()) return;
    try {
      const r = await api.post<{ data: { threshold: number; warned: boolean } }>('/api/bill_threshold', form);
      setDone(r.data.warned ? '已保存，当前余额已低于该阈值，已发送提醒' : '已保存');
      load();
    } catch (e) {
      setFailure({ message: failureText(e), errors: e instanceof ApiFailure ? e.errors : undefined });
    }
  };
  const remove = async () => {
    setDone('');
    try {
      await api.del('/api/bill_threshold');
      setDone('已取消余额提醒');
      load();
    } catch (e) {
      setFailure({ message: failureText(e) });
    }
  };
  return (
    <Card className="threshold-card" style={{ marginBottom: 16 }}>
      <div className="billing-stat-label">余额提醒{current !== undefined && (current === null ? '：未设置' : `：低于 ${formatMoney(current)} 元时提醒`)}</div>
      <div className="voucher-activate">
        <div>
          <DeclarationForm formRef={formRef} schema={schema} ui={ui} formData={form} errors={failure?.errors} onChange={(d: { threshold?: number }) => setForm(d)} />
        </div>
        <Button intent="primary" onClick={() => void save()} style={{ marginTop: 22 }}>
          保存
        </Button>
        {current !== null && current !== undefined && (
          <Button onClick={() => void remove()} style={{ marginTop: 22 }}>
            取消提醒
          </Button>
        )}
      </div>
      {failure && !failure.errors?.length && <Callout intent="danger">{failure.message}</Callout>}
      {done && <Callout intent="success">{done}</Callout>}
    </Card>
  );
}
