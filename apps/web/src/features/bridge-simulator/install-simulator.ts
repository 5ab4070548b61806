/**
 * The bridge simulator: plays the 谷圈 app in an ordinary browser on a demo server. Being built
 * (issue 5); until then it installs nothing and in-app pages say they need the app.
 */
export function installSimulator(win: Window): void {
  console.info('The bridge simulator is not built yet:', win.location.pathname);
}
