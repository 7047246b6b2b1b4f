/** What the resource-slice tests read out of the app besides HTTP answers. */
export { AuditLog, NoticeOutbox, DeliverNotices, EmailSender } from '@payments/core';
export { CryptoEd25519KeyCheck as CryptoEd25519KeyCheckForTests } from '@payments/node-runtime';
