import { useEffect, useRef, type RefObject } from 'react';
import { WECHAT_LAUNCH_TEMPLATE_STYLE } from '@guquan/contract/wechat-page';
import { useAppPrompt } from '../open-in-app/app-prompt';
import styles from './wechat-launch-tag.module.css';

/** Lays the host exactly over the button it stands for (both in the same positioned box). */
function cover(host: HTMLElement, anchor: HTMLElement): void {
  host.style.left = `${anchor.offsetLeft}px`;
  host.style.top = `${anchor.offsetTop}px`;
  host.style.width = `${anchor.offsetWidth}px`;
  host.style.height = `${anchor.offsetHeight}px`;
}

/**
 * WeChat's open tag over an "open in app" button, once WeChat is ready (never in the server's
 * markup, so hydration is unaffected): a tap there opens the app on the same item and image
 * through WeChat; when WeChat cannot open it (not installed, not allowed) the guide opens.
 * Its look is WeChat's template, invisible, so the visitor sees and taps our own button.
 */
export function WeChatLaunchTag({ anchor }: { anchor: RefObject<HTMLElement | null> }) {
  const { wechatLaunch } = useAppPrompt();
  return wechatLaunch ? <LaunchTag anchor={anchor} {...wechatLaunch} /> : null;
}

function LaunchTag({
  anchor,
  openAppId,
  extinfo,
  onFailure,
}: {
  anchor: RefObject<HTMLElement | null>;
  openAppId: string;
  extinfo: string;
  onFailure: () => void;
}) {
  const host = useRef<HTMLSpanElement>(null);
  const tag = useRef<HTMLElement | null>(null);
  const failed = useRef(onFailure);
  useEffect(() => {
    failed.current = onFailure;
  });

  useEffect(() => {
    const box = host.current;
    const button = anchor.current;
    if (!box || !button) return;
    const element = document.createElement('wx-open-launch-app');
    element.setAttribute('appid', openAppId);
    const template = document.createElement('script');
    template.type = 'text/wxtag-template';
    template.textContent = `<style>${WECHAT_LAUNCH_TEMPLATE_STYLE}</style><div class="launch"></div>`;
    element.append(template);
    const onError = () => {
      failed.current();
    };
    element.addEventListener('error', onError);
    box.append(element);
    tag.current = element;
    const place = () => {
      cover(box, button);
    };
    place();
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('resize', place);
      element.removeEventListener('error', onError);
      element.remove();
      tag.current = null;
    };
  }, [anchor, openAppId]);

  useEffect(() => {
    // The same deep link the other ways use: the item, and the image being viewed.
    tag.current?.setAttribute('extinfo', extinfo);
  }, [extinfo, openAppId]);

  return <span ref={host} className={styles.host} data-wechat-launch="" />;
}
