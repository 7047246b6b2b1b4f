import { channelContract } from '@payments/channel-kit';
import test from 'ava';
import { stripeSubject } from './stripe-subject';

channelContract(test, 'stripe', stripeSubject);
