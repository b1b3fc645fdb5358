/** Certificate templates (GET/POST/PUT/DELETE /api/https/certificate/template): the certificate_template declaration. */
import { useEffect, useRef, useState } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, HTMLTable } from '@blueprintjs/core';
import templateSchema from '../../../../schemas/forms/certificate_template/schema.json';
import templateUi from '../../../../schemas/forms/certificate_template/ui.json';
import { DeclarationForm } from '../../../../renderers/DeclarationForm';
import { api, ApiFailure, failureText } from '../../api/client';
import { notify } from '../../common/toaster';
import type { FieldError } from '../../../shared/errors';

export interface Template {
  template_id: number;
  name: string;
  organization: string;
  [field: string]: unknown;
}

export function TemplatesDialog({ onClose }: { onClose(): void }) {
  const [rows, setRows] = useState<Template[]>([]);
  const [editing, setEditing] = useState<Record<string, unknown> | null>(null);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const formRef = useRef<any>(null);
  const load = () => api.get<{ data: Template[] }>('/api/https/certificate/template').then((r) => setRows(r.data)).catch((e) => setFailure(failureText(e)));
  useEffect(() => {
    void load();
  }, []);

  async function save() {
    if (!editing || !formRef.current?.validateForm()) return;
    const { template_id, created_at, ...body } = editing as { template_id?: number; created_at?: string };
    try {
      if (template_id) await api.put(`/api/https/certificate/template?template_id=${template_id}`, body);
      else await api.post('/api/https/certificate/template', body);
      notify('保存成功', 'success');
      setEditing(null);
      await load();
    } catch (e) {
      setErrors(e instanceof ApiFailure ? e.errors : []);
      setFailure(failureText(e));
    }
  }

  async function remove(t: Template) {
    try {
      await api.del(`/api/https/certificate/template?template_id=${t.template_id}`);
      await load();
    } catch (e) {
      setFailure(failureText(e));
    }
  }

  return (
    <Dialog isOpen title="证书模板" onClose={onClose} className="setting-dialog templates-dialog">
      <DialogBody>
        {failure && <Callout intent="danger">{failure}</Callout>}
        {editing ? (
          <DeclarationForm formRef={formRef} schema={templateSchema} ui={templateUi} formData={editing} onChange={(d) => { setEditing({ ...editing, ...d }); setErrors([]); }} errors={errors} />
        ) : (
          <HTMLTable compact striped className="template-table">
            <tbody>
              {rows.map((t) => (
                <tr key={t.template_id}>
                  <td>{t.name}</td>
                  <td>{t.organization}</td>
                  <td>
                    <Button variant="minimal" text="编辑" onClick={() => setEditing(t)} />
                    <Button variant="minimal" intent="danger" text="删除" onClick={() => void remove(t)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          editing ? (
            <>
              <Button onClick={() => setEditing(null)}>取消</Button>
              <Button intent="primary" onClick={save} className="template-save">
                保存
              </Button>
            </>
          ) : (
            <>
              <Button onClick={onClose}>关闭</Button>
              <Button intent="primary" icon="add" onClick={() => setEditing({ country: 'CN' })} className="template-add">
                新建模板
              </Button>
            </>
          )
        }
      />
    </Dialog>
  );
}
