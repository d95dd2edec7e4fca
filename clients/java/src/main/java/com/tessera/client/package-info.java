/**
 * The Tessera identity API's Java client: {@link com.tessera.client.TesseraClient} makes the calls; {@link
 * com.tessera.client.LookupInput} and {@link com.tessera.client.LookupOptions} say what to look up; {@link
 * com.tessera.client.LookupResult}, {@link com.tessera.client.BatchResult} and {@link com.tessera.client.CsvReply}
 * carry the replies; {@link com.tessera.client.TesseraException} every failure; {@link com.tessera.client.Json} reads
 * and writes JSON.
 */
package com.tessera.client;
