// Stands in for react-devtools-core in the bundle (ink 8 imports it only when DEV=true).
export default { initialize() {}, connectToDevTools() {} };
