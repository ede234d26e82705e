// The HTTP pieces every feature shares: problems, JSON bodies, validation, formats, OpenAPI metadata.
global using Slots.Api.Http;
