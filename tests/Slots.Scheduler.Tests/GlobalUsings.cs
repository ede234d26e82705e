global using Slots.Topology.Run;
global using Xunit;
