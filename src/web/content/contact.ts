import { bankDetails } from '../../shared/bank-details';

// The bank's published contact details: an operator replaces these demo values (the address is
// shared with the server, which prints it on statements: src/shared/bank-details.ts).
export const contactDetails = {
  email: 'support@ledgerline.example',
  phone: '+1 (555) 010-0199',
  hours: 'Monday to Friday, 8:00 to 18:00 Eastern Time',
  address: bankDetails.address,
  answerTime: 'We answer every message within one business day.',
};
