import type { RefObject } from 'react';
import { onDemand } from '../../../lib/chunks/on-demand';
import { useAppPrompt } from '../open-in-app/app-prompt';
import type { LaunchTagProps } from './wechat-open-tag';

/** The tag's code: only inside WeChat, once its JS-SDK is ready (itself loaded only then). */
const { Component: LaunchTag } = onDemand<LaunchTagProps>(() =>
  import('./wechat-open-tag').then((module) => module.LaunchTag),
);

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
