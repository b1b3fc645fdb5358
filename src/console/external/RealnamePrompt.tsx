/**
 * The real-name prompt (spec 000 §5, §6: 22005): entering SMS, one-click login and the partner CDP
 * console needs verify_status yes. Reusable: any page that meets 22005 opens it.
 */
import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { useNavigate } from 'react-router-dom';

export function RealnamePrompt({ isOpen, product, onClose }: { isOpen: boolean; product?: string; onClose: () => void }) {
  const navigate = useNavigate();
  return (
    <Dialog isOpen={isOpen} title="实名认证" icon="id-number" onClose={onClose} className="realname-dialog">
      <DialogBody>
        <p>根据相关规定，您需要先完成个人或企业实名认证，才能使用{product ?? '该产品'}。</p>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="取消" onClick={onClose} />
            <Button
              intent="primary"
              text="去实名认证"
              onClick={() => {
                onClose();
                navigate('/account/verifypersonal/');
              }}
            />
          </>
        }
      />
    </Dialog>
  );
}
