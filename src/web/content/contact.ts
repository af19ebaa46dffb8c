// The bank's published contact details: an operator replaces these demo values.
export const contactDetails = {
  email: 'support@ledgerline.example',
  phone: '+1 (555) 010-0199',
  hours: 'Monday to Friday, 8:00 to 18:00 Eastern Time',
  address: '100 Demo Plaza, Suite 500, Springfield',
  answerTime: 'We answer every message within one business day.',
};
