import { describe, expect, it } from 'vitest';
import { labelServerMessage } from './server-errors';

describe('labelServerMessage', () => {
  const labels = {
    statusCallbackUrl: 'Status callback URL',
    name: 'Name',
  };

  it('names a camelCase API field by its label, and says which field it is', () => {
    expect(
      labelServerMessage(
        'statusCallbackUrl host a.test does not resolve',
        labels,
      ),
    ).toEqual({
      field: 'statusCallbackUrl',
      text: 'Status callback URL host a.test does not resolve',
    });
  });

  it("names a validation path's field (body.name) by its label", () => {
    expect(
      labelServerMessage('body.name: Too big: expected at most 100', labels),
    ).toEqual({ field: 'name', text: 'Name: Too big: expected at most 100' });
  });

  it('leaves plain words alone: "name" in a sentence is no field name', () => {
    expect(
      labelServerMessage('Choose another name for the client', labels),
    ).toEqual({ field: null, text: 'Choose another name for the client' });
  });
});
