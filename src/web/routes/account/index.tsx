import { redirect } from 'react-router';
import { paths } from '../../paths';

export function clientLoader() {
  return redirect(paths.accountHome);
}

export default function AccountIndex() {
  return null;
}
