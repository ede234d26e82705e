global using Xunit;
global using Slots.Topology.Run;
