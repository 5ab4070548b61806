import { APP_QR_CODE_PATH } from '@guquan/contract/qr-codes';
import { PhoneQrCode } from '../../components/phone-qr-code/phone-qr-code';
import { useLanguage } from '../../lib/i18n/language-context';
import { downloadQrTexts } from './download-qr-texts';

/** The app's QR code for a desktop visitor's phone (its own chunk: download-section.tsx). */
export function DownloadQr({ className }: { className?: string }) {
  const text = downloadQrTexts(useLanguage());
  return (
    <PhoneQrCode
      src={APP_QR_CODE_PATH}
      heading={text.heading}
      hint={text.hint}
      alt={text.alt}
      className={className}
    />
  );
}
