import { onDemand } from '../../lib/chunks/on-demand';
import type { OpenInBrowserGuideProps } from './open-in-browser-guide';

const guide = onDemand<OpenInBrowserGuideProps>(
  () => import('./open-in-browser-guide').then((module) => module.OpenInBrowserGuide),
  (props) => {
    props.onClose();
  },
);

/**
 * The "open in the browser" guide, loaded when it first opens: only a tap inside WeChat, QQ or
 * Weibo needs it, so the pages that offer it do not start with it. Where its chunk cannot be had,
 * the guide closes again.
 */
export function OpenInBrowserGuide(props: OpenInBrowserGuideProps) {
  return props.open ? <guide.Component {...props} /> : null;
}
