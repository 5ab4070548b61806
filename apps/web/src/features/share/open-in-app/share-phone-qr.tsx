import { useLocation } from 'react-router';
import { shareQrCodePath } from '@guquan/contract/qr-codes';
import { PUBLIC_ID_PATTERN, sharePageKind } from '@guquan/contract/share-paths';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { PhoneQrCode } from '../../../components/phone-qr-code/phone-qr-code';
import { canHaveApp } from '../../../lib/client/app-opening';
import { useClientInfo } from '../../../lib/client/client-info-context';
import { useLanguage } from '../../../lib/i18n/language-context';
import { phoneQrTexts } from './phone-qr-texts';

/**
 * Where "open in app" cannot open an app (a desktop browser, by the User-Agent the server and
 * the browser both read): the QR code of the item's Universal Link, for the visitor's phone.
 * Nothing on a phone.
 */
export function SharePhoneQr({ className }: { className?: string }) {
  const client = useClientInfo();
  const language = useLanguage();
  const { pathname, search } = useLocation();
  if (canHaveApp(client)) return null;
  const kind = sharePageKind(`${BASE_PATH}${pathname}`);
  const id = new URLSearchParams(search).get('id');
  if (kind === undefined || id === null || !PUBLIC_ID_PATTERN.test(id)) return null;
  const text = phoneQrTexts(language);
  return (
    <PhoneQrCode
      src={shareQrCodePath(kind, id)}
      heading={text.heading}
      hint={text.hint[kind]}
      alt={text.alt}
      className={className}
    />
  );
}
