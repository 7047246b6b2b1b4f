import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../api';
import { useAction } from './hooks';
import { t } from '../i18n';
import { BASE, linkHandler } from '../router';

export function Link(props: { to: string; children: ComponentChildren; class?: string; 'aria-current'?: 'page' }) {
  return (
    <a href={`${BASE}${props.to}`} onClick={linkHandler(props.to)} class={props.class} aria-current={props['aria-current']}>
      {props.children}
    </a>
  );
}

/** The API's error, as the person should read it: its message, and its code for support. */
export function ErrorText(props: { error: ApiError | undefined }) {
  if (!props.error) return null;
  return (
    <p class="error" role="alert">
      {props.error.status === 403 && props.error.code === 'forbidden' ? t('error.forbidden') : props.error.message}{' '}
      <span class="muted">({props.error.code})</span>
    </p>
  );
}

export function Loading(props: { when: boolean }) {
  return props.when ? (
    <p class="muted" role="status">
      {t('common.loading')}
    </p>
  ) : null;
}

export function Status(props: { value: string }) {
  return <span class={`badge badge-${props.value.replace(/[^a-z_]/g, '')}`}>{t(`status.${props.value}`, {}, props.value)}</span>;
}

/** Label/value pairs of an object's detail page. */
export function Facts(props: { rows: readonly (readonly [string, ComponentChildren])[] }) {
  return (
    <dl class="facts">
      {props.rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A modal dialog on the browser's own `<dialog>`: focus moves in and is kept there, Escape closes,
 * and focus goes back to what opened it.
 */
export function Dialog(props: { title: string; open: boolean; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby="dialog-title" onClose={props.onClose}>
      <h2 id="dialog-title">{props.title}</h2>
      {props.open ? props.children : null}
    </dialog>
  );
}

/** Copies a secret shown once; says so for screen readers too. */
export function CopyButton(props: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(props.text);
    setCopied(true);
  };
  return (
    <button type="button" class="secondary" onClick={() => void copy()}>
      {copied ? t('common.copied') : (props.label ?? t('common.copy'))}
    </button>
  );
}

/** A secret the API shows this once: the value, a copy button and the warning. */
export function SecretOnce(props: { label: string; value: string }) {
  return (
    <div class="secret" role="region" aria-label={props.label}>
      <p>
        <strong>{props.label}</strong> — {t('common.shownOnce')}
      </p>
      <code class="secret-value">{props.value}</code> <CopyButton text={props.value} />
    </div>
  );
}

/** Cursor pages: "newer" goes back through the cursors already seen, "older" starts after the last row. */
export function usePager(): { cursor: string | undefined; next: (lastId: string) => void; previous: () => void; reset: () => void; page: number } {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    cursor: cursors.at(-1),
    page: cursors.length + 1,
    next: (lastId) => setCursors((list) => [...list, lastId]),
    previous: () => setCursors((list) => list.slice(0, -1)),
    reset: () => setCursors([]),
  };
}

export function Pager(props: { pager: ReturnType<typeof usePager>; hasMore: boolean; lastId: string | undefined }) {
  const { pager } = props;
  if (pager.page === 1 && !props.hasMore) return null;
  return (
    <nav class="pager" aria-label={t('common.pages')}>
      <button type="button" class="secondary" disabled={pager.page === 1} onClick={pager.previous}>
        {t('common.newer')}
      </button>
      <span>{t('common.page', { n: pager.page })}</span>
      <button type="button" class="secondary" disabled={!props.hasMore || !props.lastId} onClick={() => props.lastId && pager.next(props.lastId)}>
        {t('common.older')}
      </button>
    </nav>
  );
}

/** A labelled form field; the label is tied to the control for screen readers and clicks. */
export function Field(props: { label: string; id: string; hint?: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint ? (
        <p class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      ) : null}
    </div>
  );
}

/** The foot of a dialog's form: cancel, and the submit button, disabled while its request runs. */
export function DialogActions(props: { onCancel: () => void; submitLabel: string; disabled: boolean; danger?: boolean }) {
  return (
    <div class="actions">
      <button type="button" class="secondary" onClick={props.onCancel}>
        {t('common.cancel')}
      </button>
      <button type="submit" class={props.danger ? 'danger' : undefined} disabled={props.disabled}>
        {props.submitLabel}
      </button>
    </div>
  );
}

/** "Are you sure?" for what cannot be undone (revoking a key, deleting an endpoint); the API's refusal stays shown. */
export function ConfirmDialog(props: {
  title: string;
  message: string;
  confirmLabel: string;
  open: boolean;
  onClose: () => void;
  onConfirm: () => Promise<void>;
}) {
  return (
    <Dialog title={props.title} open={props.open} onClose={props.onClose}>
      <ConfirmForm {...props} />
    </Dialog>
  );
}

function ConfirmForm(props: { message: string; confirmLabel: string; onClose: () => void; onConfirm: () => Promise<void> }) {
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await action.run(props.onConfirm)) props.onClose();
  };
  return (
    <form onSubmit={(event) => void submit(event)}>
      <p>{props.message}</p>
      <ErrorText error={action.error} />
      <DialogActions onCancel={props.onClose} submitLabel={props.confirmLabel} disabled={action.busy} danger />
    </form>
  );
}

/** One column of a DataTable: its header and how a row fills it. */
export interface Column<T> {
  readonly label: string;
  readonly cell: (row: T) => ComponentChildren;
  /** Amounts and counts: right-aligned, tabular figures. */
  readonly num?: boolean;
  /** Secondary: steps aside on a phone-sized screen. */
  readonly wide?: boolean;
}

/**
 * A list of objects as a table, or `empty` when there are none, or nothing while it loads. Every
 * list of the console is drawn by this, so headers, alignment and the phone layout agree.
 */
export function DataTable<T>(props: {
  rows: readonly T[] | undefined;
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  empty: string;
  caption?: string;
}) {
  if (!props.rows) return null;
  if (props.rows.length === 0) return <p class="muted">{props.empty}</p>;
  const classOf = (column: Column<T>) => [column.num ? 'num' : '', column.wide ? 'wide' : ''].filter(Boolean).join(' ') || undefined;
  return (
    <table>
      {props.caption ? <caption class="visually-hidden">{props.caption}</caption> : null}
      <thead>
        <tr>
          {props.columns.map((column) => (
            <th scope="col" key={column.label} class={classOf(column)}>
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr key={props.rowKey(row)}>
            {props.columns.map((column) => (
              <td key={column.label} class={classOf(column)}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A filter of a list by one of a few values ("Any" first); changing it goes back to the first page. */
export function SelectFilter(props: {
  id: string;
  label: string;
  value: string;
  options: readonly string[];
  optionLabel: (value: string) => string;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={props.label} id={props.id}>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        <option value="">{t('common.any')}</option>
        {props.options.map((value) => (
          <option key={value} value={value}>
            {props.optionLabel(value)}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** The six digits of an authenticator app (sign-in, the claim, step-up), with its hint tied to it. */
export function CodeField(props: { id: string; label: string; hint: string; value: string; onInput: (code: string) => void }) {
  return (
    <Field label={props.label} id={props.id} hint={props.hint}>
      <input
        id={props.id}
        inputMode="numeric"
        autocomplete="one-time-code"
        pattern="[0-9]{6}"
        required
        aria-describedby={`${props.id}-hint`}
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value.trim())}
      />
    </Field>
  );
}
