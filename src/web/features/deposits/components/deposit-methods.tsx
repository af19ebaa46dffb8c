import { Banknote, Bitcoin, DollarSign, Landmark, Wallet } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { DEPOSIT_METHODS, depositUnavailableMessage } from '../../../../shared/contracts/deposits';
import { paths } from '../../../paths';

const ICONS = { paypal: Wallet, cashapp: DollarSign, bank_transfer: Landmark } as const;
const tile =
  'flex h-full w-full flex-col items-center justify-center gap-3 rounded-xl border border-slate-200 bg-white p-6 text-center font-semibold text-slate-900 shadow-sm hover:border-brand-600 hover:bg-brand-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600';

/** 'Choose Deposit Method': three methods say they are unavailable; crypto opens its page. */
export function DepositMethods() {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {DEPOSIT_METHODS.map((method) => {
        const Icon = ICONS[method.id] ?? Banknote;
        return (
          <li key={method.id}>
            <button type="button" className={tile} onClick={() => toast(depositUnavailableMessage(method.label))}>
              <Icon aria-hidden="true" className="h-8 w-8 text-brand-700" />
              {method.label}
            </button>
          </li>
        );
      })}
      <li>
        <Link to={paths.accountDepositCrypto} className={tile}>
          <Bitcoin aria-hidden="true" className="h-8 w-8 text-brand-700" />
          Crypto Deposit
        </Link>
      </li>
    </ul>
  );
}
