import { channelContract } from '@payments/channel-kit';
import test from 'ava';
import { omiseSubject } from './omise-subject';

// Omise signs no webhook: the suite checks that the adapter confirms each delivery by query instead.
channelContract(test, 'omise', omiseSubject, { callbacks: 'confirmed-by-query' });
