import { ComingSoon } from '../../components/ui/placeholder';

export default function Page() {
  return <ComingSoon title="Loans" />;
}
