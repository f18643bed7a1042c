import type { Address, OrderLine, Shipment } from '@print-contracts/client';

/** Where an order is delivered, as its shipments name it (the docs' `shipmentInfo` fields). */
export interface ShippingAddress {
  readonly labelName: string;
  readonly street: string;
  readonly houseNumber: string;
  readonly houseNumberAddition: string | null;
  readonly zipCode: string;
  readonly city: string;
  readonly country: string;
}

/** The shipping address of a create or update request's delivery address. */
export function shippingAddressOf(address: Address): ShippingAddress {
  const name = `${address.firstName} ${address.lastName}`;
  return {
    labelName: address.company ? `${address.company}, ${name}` : name,
    street: address.street,
    houseNumber: address.housenumber.trim(),
    houseNumberAddition: address.housenumberAddition ?? null,
    zipCode: address.zipcode,
    city: address.city,
    country: address.country.toUpperCase(),
  };
}

/**
 * A line's shipment as the docs show it: the address, what shipping cost, and one
 * track-and-trace URL per parcel.
 */
export function shipmentOf(address: ShippingAddress, line: OrderLine, parcels: number): Shipment {
  const code = `3S${String(line.id).replace(/\D/g, '')}`;
  return {
    ...address,
    shippingCost: line.shippingCost ?? 0,
    trackAndTraceUrl: Array.from(
      { length: parcels },
      (_, parcel) =>
        `https://jouw.postnl.nl/track-and-trace/${code}${parcel + 1}-${address.country}-${address.zipCode.replace(/\s/g, '')}`,
    ),
  };
}
