import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { t } from '../i18n';
import { useAction } from './hooks';
import { CodeField, Dialog, DialogActions, ErrorText } from './kit';

/**
 * A step-up action: the person acting confirms it with a fresh one-time code. The dialog stays
 * open on a wrong code (403 mfa_code_invalid) or throttling (429), with the API's words.
 */
export function StepUpDialog(props: {
  title: string;
  open: boolean;
  onClose: () => void;
  onConfirm: (code: string) => Promise<void>;
  children?: ComponentChildren;
}) {
  return (
    <Dialog title={props.title} open={props.open} onClose={props.onClose}>
      <StepUpForm {...props} />
    </Dialog>
  );
}

function StepUpForm(props: { onClose: () => void; onConfirm: (code: string) => Promise<void>; children?: ComponentChildren }) {
  const [code, setCode] = useState('');
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await action.run(() => props.onConfirm(code))) props.onClose();
  };
  return (
    <form onSubmit={(event) => void submit(event)}>
      {props.children}
      <CodeField id="step-up-code" label={t('stepUp.code')} hint={t('stepUp.hint')} value={code} onInput={setCode} />
      <ErrorText error={action.error} />
      <DialogActions onCancel={props.onClose} submitLabel={t('stepUp.confirm')} disabled={action.busy} />
    </form>
  );
}
