import { redirect } from 'react-router';

export function clientLoader() {
  return redirect('/account/home');
}

export default function AccountIndex() {
  return null;
}
