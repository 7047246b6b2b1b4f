import { CoreError } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { CONSOLE_PAGE, isConsolePage } from './console-files';

/**
 * Every page of the console (`/dashboard`, `/dashboard/payments/pi_…`): the same HTML, whose script
 * draws the page the path names, so links and reloads work. A path that names no page of the
 * console answers the same HTML with 404 (its script shows a not-found page with a way back).
 * `/dashboard/v1/…` is the API: a path there that no API route has is the API's 404, never this page.
 */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/{path*}',
  access: 'console-page',
  handler: () => (request, h) => {
    const param: unknown = request.params.path;
    const path = typeof param === 'string' ? param : '';
    if (path === 'v1' || path.startsWith('v1/') || path.startsWith('assets/')) throw new CoreError('resource_not_found', 'not_found', 'No such route.');
    return h
      .response(CONSOLE_PAGE.body)
      .type(CONSOLE_PAGE.type)
      .code(isConsolePage(path) ? 200 : 404);
  },
});
