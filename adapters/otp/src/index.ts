export * from './otplib-one-time-codes';
