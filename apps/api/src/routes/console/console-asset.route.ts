import { defineRoute } from '../../http/define-route';
import { consoleFile } from './console-files';

/** The console's script and stylesheet. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/assets/{file}',
  access: 'console-page',
  handler: () => (request, h) => {
    const file = consoleFile(String(request.params.file));
    return h.response(file.body).type(file.type);
  },
});
