import { useEffect, useRef, type RefObject } from 'react';
import { WECHAT_LAUNCH_TEMPLATE_STYLE } from '@guquan/contract/wechat-page';
import styles from './wechat-launch-tag.module.css';

/** Lays the host exactly over the button it stands for (both in the same positioned box). */
function cover(host: HTMLElement, anchor: HTMLElement): void {
  host.style.left = `${anchor.offsetLeft}px`;
  host.style.top = `${anchor.offsetTop}px`;
  host.style.width = `${anchor.offsetWidth}px`;
  host.style.height = `${anchor.offsetHeight}px`;
}

export interface LaunchTagProps {
  anchor: RefObject<HTMLElement | null>;
  openAppId: string;
  extinfo: string;
  onFailure: () => void;
}

/** WeChat's <wx-open-launch-app> laid over the button (see wechat-launch-tag.tsx). */
export function LaunchTag({ anchor, openAppId, extinfo, onFailure }: LaunchTagProps) {
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
