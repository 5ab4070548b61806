import { useEffect, useId, useRef, useState, type SyntheticEvent } from 'react';
import { DELETION_COOL_OFF_DAYS, type DeletionOverview } from '@guquan/contract/account-deletion';
import type { Language } from '@guquan/contract/language';
import { Card } from '../../components/card/card';
import buttons from '../../components/button.module.css';
import { ConfirmDialog } from '../../components/confirm-dialog/confirm-dialog';
import { formatDate } from '../../lib/format/dates';
import { deletionApi, type DeletionResult } from './deletion-api';
import type { DeletionTexts } from './deletion-texts';
import type { AccountDeletion } from './use-account-deletion';
import styles from './account-deletion-page.module.css';

export interface VerifyFormProps {
  t: DeletionTexts;
  language: Language;
  overview: DeletionOverview;
  token: string;
  maskedPhone: string;
  deletion: AccountDeletion;
}

/** The SMS code, the "I understand", and the confirmation before the request is made. */
export function VerifyForm(props: VerifyFormProps) {
  const { t, language, overview, token, maskedPhone, deletion } = props;
  const [code, setCode] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [sentTo, setSentTo] = useState<string | undefined>(undefined);
  const [resendAt, setResendAt] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [dialogOpen, setDialogOpen] = useState(false);
  /** The code the server said is right: asked again only once it changes. */
  const [checkedCode, setCheckedCode] = useState<string | undefined>(undefined);
  const submitRef = useRef<HTMLButtonElement>(null);
  const ids = useId();

  const waitSeconds = Math.max(0, Math.ceil((resendAt - now) / 1000));
  useEffect(() => {
    if (resendAt <= Date.now()) return undefined;
    const timer = setInterval(() => {
      setNow(Date.now());
    }, 1000);
    return () => {
      clearInterval(timer);
    };
  }, [resendAt]);

  const failed = (result: Exclude<DeletionResult<unknown>, { ok: true }>) => {
    if (result.kind === 'unauthorized') {
      deletion.sessionEnded();
      return;
    }
    if (result.kind === 'network') {
      setError(t.requestFailed);
      return;
    }
    const { code: errorCode, retryAfterSeconds, attemptsLeft } = result.error;
    if (errorCode === 'sms_rate_limited' && retryAfterSeconds !== undefined) {
      setResendAt(Date.now() + retryAfterSeconds * 1000);
      setNow(Date.now());
      setError(t.rateLimited(retryAfterSeconds));
    } else if (errorCode === 'code_wrong' && attemptsLeft !== undefined) {
      setError(t.wrongCode(attemptsLeft));
    } else if (errorCode === 'deletion_blocked' || errorCode === 'deletion_pending') {
      deletion.reload();
    } else {
      setError(t.errors[errorCode] ?? t.requestFailed);
    }
  };

  const sendCode = async () => {
    setBusy(true);
    setError(undefined);
    const result = await deletionApi.sendCode(token);
    setBusy(false);
    if (result.ok) {
      setSentTo(result.value.maskedPhone);
      setResendAt(Date.now() + result.value.resendAfterSeconds * 1000);
      setNow(Date.now());
    } else failed(result);
  };

  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    const result = await deletionApi.confirm(token, code);
    setBusy(false);
    setDialogOpen(false);
    if (result.ok) {
      deletion.setOverview({ ...overview, request: result.value });
      deletion.requested(result.value);
    } else {
      failed(result);
      submitRef.current?.focus();
    }
  };

  // The code is checked first: the last "are you sure" is asked only of a code that is right.
  const checkThenAsk = async () => {
    if (checkedCode === code) {
      setDialogOpen(true);
      return;
    }
    setBusy(true);
    setError(undefined);
    const result = await deletionApi.checkCode(token, code);
    setBusy(false);
    if (result.ok) {
      setCheckedCode(code);
      setDialogOpen(true);
    } else failed(result);
  };

  const onSubmit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (/^\d{6}$/.test(code) && agreed && !busy) void checkThenAsk();
  };

  const codeReady = /^\d{6}$/.test(code);
  const deletesAtPreview = new Date(now + DELETION_COOL_OFF_DAYS * 24 * 60 * 60 * 1000);

  return (
    <Card className={styles.card} aria-labelledby={`${ids}-verify`}>
      <h2 id={`${ids}-verify`} className={styles.sectionTitle}>
        {t.verifyHeading}
      </h2>
      <form onSubmit={onSubmit} noValidate>
        <p className={styles.note} role="status">
          {sentTo ? t.codeSent(sentTo) : t.sendTo(maskedPhone)}
        </p>
        <div className={styles.codeRow}>
          <label htmlFor={`${ids}-code`} className="visually-hidden">
            {t.codeLabel}
          </label>
          <input
            id={`${ids}-code`}
            className={styles.codeInput}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={6}
            placeholder={t.codeLabel}
            value={code}
            aria-invalid={error !== undefined}
            aria-describedby={error ? `${ids}-error` : undefined}
            onChange={(event) => {
              setCode(event.target.value.replace(/\D/g, '').slice(0, 6));
            }}
          />
          <button
            type="button"
            className={styles.sendButton}
            disabled={busy || waitSeconds > 0}
            onClick={() => void sendCode()}
          >
            {waitSeconds > 0 ? t.resendIn(waitSeconds) : t.sendCode}
          </button>
        </div>
        {error ? (
          <p id={`${ids}-error`} role="alert" className={styles.error}>
            {error}
          </p>
        ) : null}
        <label className={styles.agree}>
          <input
            type="checkbox"
            checked={agreed}
            onChange={(event) => {
              setAgreed(event.target.checked);
            }}
          />
          <span>{t.understand(DELETION_COOL_OFF_DAYS)}</span>
        </label>
        <button
          ref={submitRef}
          type="submit"
          className={`${buttons.primary} ${styles.submit}`}
          disabled={!codeReady || !agreed || busy}
        >
          {t.submit}
        </button>
      </form>
      {dialogOpen ? (
        <ConfirmDialog
          tone="danger"
          title={t.dialogHeading}
          body={t.dialogBody(formatDate(deletesAtPreview.toISOString(), language))}
          cancelLabel={t.dialogBack}
          confirmLabel={t.dialogConfirm}
          busy={busy}
          onConfirm={() => void confirm()}
          onCancel={() => {
            setDialogOpen(false);
          }}
          returnFocus={submitRef}
        />
      ) : null}
    </Card>
  );
}
